from django.contrib import admin

from ships.models import Ship, ShipPosting, ShipTrait, ShipType


@admin.register(ShipType)
class ShipTypeAdmin(admin.ModelAdmin):
    list_display = ["name", "command", "rating", "guns_min", "guns_max", "broadside", "speed",
                    "handling"]


@admin.register(ShipTrait)
class ShipTraitAdmin(admin.ModelAdmin):
    list_display = ["name", "description", "speed", "handling", "broadside"]


class ShipPostingInline(admin.TabularInline):
    model = ShipPosting
    extra = 0


@admin.register(Ship)
class ShipAdmin(admin.ModelAdmin):
    list_display = ["display_name", "ship_type", "side", "campaign", "morale_state", "version"]
    list_filter = ["side", "ship_type", "campaign"]
    search_fields = ["name"]
    filter_horizontal = ["traits"]
    inlines = [ShipPostingInline]
