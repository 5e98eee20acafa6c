"""The two small musters the campaign tests play (the CLI's and the web keeper's): one YAML, one TOML."""

WING_YAML = """\
name: Broken Wing
game_type: Common
faction: Broken Wing
general: Decurion
units:
  - {unit: Billmen, miniatures: 8, level: 1, hero: Decurion, hero_level: 1}
  - {unit: Longbowmen, level: 2, label: Yew and grey goose}
  - {unit: Arbalestiers, level: 1}
  - {unit: Ympes, level: 1}
"""

BREC_TOML = """\
name = "Brec'Helean"
game_type = "Common"
faction = "Brec'Helean"
general = "Marrenne"

[[units]]
unit = "Vileins"
level = 1
hero = "Marrenne"
hero_level = 1

[[units]]
unit = "Soffrances"
level = 1

[[units]]
unit = "Franc Chevalers"
level = 1

[[units]]
unit = "Hobelars"
level = 1
"""
