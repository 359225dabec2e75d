"""A person's entries as data: the stored shapes, their one-line summaries, export."""
