from django.contrib import admin

from characters.models import Character


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "rank", "kind", "campaign", "owner", "seniority", "version"]
    list_filter = ["kind", "campaign"]
    search_fields = ["name", "rank", "owner__username"]
