"""Rows and the one place that turns them into engine values; the schema's migrations."""
