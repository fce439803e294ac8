"""Tables seated for a tournament's matches before games.Table.arranged existed are marked as
arranged, so their players are not offered a rematch of them."""

from django.db import migrations


def mark_arranged(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Match = apps.get_model("tournaments", "Match")
    tables = Match.objects.filter(table__isnull=False).values("table_id")
    Table.objects.filter(pk__in=tables).update(arranged=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_round_robin_schedule"),
        ("games", "0011_table_arranged"),
    ]

    operations = [migrations.RunPython(mark_arranged, migrations.RunPython.noop)]
