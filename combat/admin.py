"""Admin pages for encounters and jobs: read-mostly, for support (changes go through the
services)."""

from django.contrib import admin

from combat.models import Encounter, EncounterEvent, Job


class EncounterEventInline(admin.TabularInline):
    model = EncounterEvent
    extra = 0
    fields = ("seq", "round", "kind", "text", "visible_to")
    readonly_fields = fields
    can_delete = False


@admin.register(Encounter)
class EncounterAdmin(admin.ModelAdmin):
    list_display = ("title", "campaign", "engine", "status", "version", "created_at")
    list_filter = ("engine", "status")
    search_fields = ("title",)
    readonly_fields = ("seed", "seed_hash", "terms", "state", "rng_state", "choices", "outcome",
                       "version")
    inlines = [EncounterEventInline]


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ("encounter", "kind", "status", "steps", "created_at", "finished_at")
    list_filter = ("kind", "status")
    readonly_fields = ("claimed_at", "finished_at", "error", "steps", "lease_owner", "lease_until",
                       "takeovers")
