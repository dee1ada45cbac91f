"""Sign up, log in and log out with Django's auth (issue 2 item 4)."""

from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.conftest import PASSWORD


def test_signup_creates_the_account_logs_in_and_shows_the_campaigns(client, db):
    response = client.post(reverse("campaigns:signup"), {
        "username": "newhand", "password1": "a-long-Passphrase-77", "password2":
        "a-long-Passphrase-77",
    })
    assert response.status_code == 302 and response.url == reverse("campaigns:list")
    assert get_user_model().objects.filter(username="newhand").exists()
    page = client.get(reverse("campaigns:list"))
    assert page.status_code == 200 and "newhand" in page.content.decode()


def test_signup_with_bad_input_shows_the_errors_and_creates_nobody(client, db):
    response = client.post(reverse("campaigns:signup"), {
        "username": "newhand", "password1": "a-long-Passphrase-77", "password2": "different",
    })
    assert response.status_code == 200
    html = response.content.decode()
    assert "aria-invalid" in html and "didn’t match" in html
    assert not get_user_model().objects.filter(username="newhand").exists()


def test_signup_goes_on_to_a_local_next_page_only(client, db):
    data = {"username": "a1", "password1": "a-long-Passphrase-77",
            "password2": "a-long-Passphrase-77", "next": "/join/abc/"}
    assert client.post(reverse("campaigns:signup"), data).url == "/join/abc/"
    client.logout()
    data.update(username="a2", next="https://evil.example/")
    assert client.post(reverse("campaigns:signup"), data).url == reverse("campaigns:list")


def test_login_page_logs_in_and_goes_to_the_campaign_list(client, gm):
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": "gm", "password": PASSWORD})
    assert response.status_code == 302 and response.url == reverse("campaigns:list")
    assert client.get(reverse("campaigns:list")).status_code == 200


def test_login_with_a_wrong_password_says_so(client, gm):
    response = client.post(reverse("login"), {"username": "gm", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_logout_ends_the_session(gm_client):
    response = gm_client.post(reverse("logout"))
    assert response.status_code == 302
    page = gm_client.get(reverse("campaigns:list"))
    assert page.status_code == 302 and page.url.startswith(reverse("login"))


def test_pages_need_a_login(client, campaign):
    for url in (reverse("campaigns:list"), reverse("campaigns:detail", args=[campaign.pk])):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
