from django.contrib import admin

from characters.models import Character, Reputation


class ReputationInline(admin.TabularInline):
    model = Reputation
    extra = 0
    fields = ["kind", "descriptor", "subject", "value", "damage_state"]


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    inlines = [ReputationInline]
    list_display = ["name", "rank", "kind", "campaign", "owner", "seniority", "version"]
    list_filter = ["kind", "campaign"]
    search_fields = ["name", "rank", "owner__username"]
