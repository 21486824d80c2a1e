"""The scenario catalogue: <system>/<name>.yaml, and schema/scenario.schema.json."""
