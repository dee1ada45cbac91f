from django.contrib import admin

from campaigns.models import Campaign, CampaignLogEntry, Membership


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
