"""The campaign settings page: every setting of rules.btq.settings with its choices and
default; saving stores only the changes; stale saves are refused with nothing lost."""

from django.urls import reverse
from django.utils.html import escape

from campaigns.forms import NOT_YET_IN_EFFECT
from campaigns.services import campaign_update
from rules.btq.settings import SETTINGS


def form_data(campaign, **settings):
    data = {"name": campaign.name, "description": campaign.description,
            "version": campaign.version}
    current = campaign.rules_settings()
    current.update(settings)
    data.update({f"setting_{name}": str(value) for name, value in current.items()})
    return data


def test_the_page_offers_every_setting_with_its_choices_and_default(gm_client, campaign):
    html = gm_client.get(reverse("campaigns:settings", args=[campaign.pk])).content.decode()
    for setting in SETTINGS.values():
        assert escape(setting.description) in html
        for label in setting.choices.values():
            assert escape(label) in html
        assert escape(f"{setting.choices[setting.default]} (default)") in html


def test_saving_stores_only_what_differs_from_the_defaults(gm_client, campaign):
    url = reverse("campaigns:settings", args=[campaign.pk])
    response = gm_client.post(url, form_data(campaign, repair_lockout="next_round",
                                             great_hardship=True))
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.settings == {"repair_lockout": "next_round", "great_hardship": True}
    assert campaign.rules_settings()["great_hardship"] is True
    assert campaign.version == 2
    response = gm_client.post(url, form_data(campaign, repair_lockout="same_round",
                                             great_hardship=False))
    campaign.refresh_from_db()
    assert campaign.settings == {}


def test_a_boolean_and_an_integer_setting_keep_their_types(gm_client, campaign):
    gm_client.post(reverse("campaigns:settings", args=[campaign.pk]),
                   form_data(campaign, personal_pool_floor=1,
                             general_weather_in_ship_combat=True))
    campaign.refresh_from_db()
    assert campaign.settings == {"personal_pool_floor": 1, "general_weather_in_ship_combat": True}
    assert type(campaign.settings["personal_pool_floor"]) is int


def test_a_value_that_is_not_a_choice_gets_a_message_not_a_500(gm_client, campaign):
    data = form_data(campaign)
    data["setting_repair_lockout"] = "never"
    response = gm_client.post(reverse("campaigns:settings", args=[campaign.pk]), data)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.settings == {} and campaign.version == 1


def test_a_stale_save_is_refused_and_the_users_input_stays(gm_client, campaign, gm):
    data = form_data(campaign, repair_lockout="next_round")
    data["name"] = "My New Name"
    campaign_update(campaign=campaign, actor=gm, version=1, description="changed meanwhile")
    response = gm_client.post(reverse("campaigns:settings", args=[campaign.pk]), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "changed by someone else" in html and "Your changes were not saved" in html
    assert 'value="My New Name"' in html
    campaign.refresh_from_db()
    assert campaign.name == "The Test Cruise" and campaign.description == "changed meanwhile"
    assert campaign.settings == {}


def test_only_the_fields_that_changed_are_logged(gm_client, campaign):
    url = reverse("campaigns:settings", args=[campaign.pk])
    gm_client.post(url, {**form_data(campaign), "description": "A new description."})
    entry = campaign.log_entries.get(kind="campaign.updated")
    assert entry.text.endswith("changed the campaign's description.")
    assert entry.data["fields"] == ["description"]
    campaign.refresh_from_db()
    gm_client.post(url, form_data(campaign))  # nothing changed: nothing logged
    assert campaign.log_entries.filter(kind="campaign.updated").count() == 1


def test_each_setting_says_what_it_applies_to_or_why_it_does_nothing_yet(gm_client, campaign):
    html = gm_client.get(reverse("campaigns:settings", args=[campaign.pk])).content.decode()
    for setting in SETTINGS.values():
        start = html.index(escape(setting.description))
        fieldset = html[html.rindex("<fieldset", 0, start):html.index("</fieldset>", start)]
        if setting.used_by:
            assert f"Applies to: {escape(setting.used_by)}." in fieldset
            assert "data-unused" not in fieldset and "not yet in effect" not in fieldset
        else:
            assert "No effect yet" in fieldset and "data-unused" in fieldset
            assert escape(NOT_YET_IN_EFFECT[setting.name]) in fieldset


def test_the_settings_not_yet_in_effect_are_greyed_in_a_group_of_their_own(gm_client,
                                                                           campaign):
    """Issue 7 item 6: the settings nothing applies yet are set apart, after those that
    apply, each greyed (class ``inactive``), marked and with its reason; they can still be
    chosen for when something applies them."""
    unused = [s for s in SETTINGS.values() if not s.used_by]
    assert set(NOT_YET_IN_EFFECT) == {s.name for s in unused}
    html = gm_client.get(reverse("campaigns:settings", args=[campaign.pk])).content.decode()
    if not unused:  # every setting applies now: no such group
        assert "data-inactive-settings" not in html and "Not yet in effect" not in html
        return
    group_start = html.index("data-inactive-settings")
    group = html[group_start:html.index("</section>", group_start)]
    assert "Not yet in effect" in group
    assert group.count('<fieldset class="inactive" data-unused') == len(unused)
    assert group.count("not yet in effect</small>") == len(unused)
    for setting in SETTINGS.values():
        position = html.index(escape(setting.description))
        assert (position > group_start) == (not setting.used_by), setting.name
    for setting in unused:
        assert f'name="setting_{setting.name}"' in group
    assert "disabled" not in group  # greyed, still a choice to keep for later


def test_a_setting_not_yet_in_effect_is_still_saved(gm_client, campaign):
    url = reverse("campaigns:settings", args=[campaign.pk])
    response = gm_client.post(url, form_data(campaign, crusty_old_seadog_skill="seamanship"))
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.settings == {"crusty_old_seadog_skill": "seamanship"}


def test_a_change_of_settings_is_logged_for_the_gm_naming_each_with_its_old_and_new_words(
        gm_client, player_a_client, campaign):
    url = reverse("campaigns:settings", args=[campaign.pk])
    gm_client.post(url, {**form_data(campaign, full_tie="defender", great_hardship=True),
                         "name": "The Long Cruise"})
    entry = campaign.log_entries.get(kind="campaign.settings")
    full_tie, hardship = SETTINGS["full_tie"], SETTINGS["great_hardship"]
    assert entry.gm_only
    assert entry.text == (
        f"gm changed the campaign settings: {full_tie.description.rstrip(',')}: "
        f"{full_tie.choices['retest']} → {full_tie.choices['defender']}; "
        f"{hardship.description}: {hardship.choices[False]} → {hardship.choices[True]}.")
    assert entry.data == {"settings": {"full_tie": ["retest", "defender"],
                                       "great_hardship": [False, True]}}
    # The new name is everyone's news; the settings, like their page, the GM's.
    renamed = campaign.log_entries.get(kind="campaign.updated")
    assert not renamed.gm_only and renamed.data == {"fields": ["name"]}
    log = reverse("campaigns:log", args=[campaign.pk])
    assert escape(full_tie.choices["defender"]) in gm_client.get(log).content.decode()
    page = player_a_client.get(log).content.decode()
    assert "changed the campaign&#x27;s name" in page
    assert "campaign settings" not in page and escape(full_tie.choices["defender"]) not in page
    assert player_a_client.get(url).status_code in (403, 404)
