from django.contrib import admin
from django.contrib.admin import options
from django.db import models

from campaigns.forms import JSONField
from campaigns.models import Campaign, CampaignLogEntry, Membership

# Every admin's JSON fields (settings, skills, crews, setups) are read as the pages and the API
# read JSON: too deep or too large is an error on the field, never a RecursionError. This is
# the first of our admin modules that Django loads (INSTALLED_APPS order), before any of our
# ModelAdmins is made.
options.FORMFIELD_FOR_DBFIELD_DEFAULTS[models.JSONField] = {"form_class": JSONField}


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at", "version"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["campaign", "user", "role", "joined_at"]
    list_filter = ["role"]
    search_fields = ["campaign__name", "user__username"]


@admin.register(CampaignLogEntry)
class CampaignLogEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "campaign", "kind", "text", "gm_only", "actor"]
    list_filter = ["gm_only", "kind"]
    search_fields = ["text", "campaign__name"]
