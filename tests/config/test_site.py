"""Site-wide pages that belong to no app: errors and the API docs."""

import pytest

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_sites_own_404(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "Not found" in body and "Quarterdeck" in body and "Back to your campaigns" in body


def test_an_outsider_gets_the_same_404_as_for_a_campaign_that_does_not_exist(
    outsider_client, campaign
):
    theirs = outsider_client.get(f"/campaigns/{campaign.pk}/")
    nothing = outsider_client.get("/campaigns/999999/")
    assert theirs.status_code == nothing.status_code == 404
    for response in (theirs, nothing):
        body = response.content.decode()
        assert "Not found" in body and campaign.name not in body


def test_api_docs_load_swagger_from_this_server_not_a_cdn(gm_client):
    response = gm_client.get("/api/docs/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "swagger-ui" in body and "cdn." not in body and "jsdelivr" not in body
