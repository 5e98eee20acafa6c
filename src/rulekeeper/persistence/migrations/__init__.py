"""The Alembic environment of the rulekeeper database (driven by :mod:`..migrate`).

Layout: ``env.py`` (runs the revisions on the connection the store hands over),
``versions/vNNNN_*.py`` (one revision each, ids ``0001``, ``0002``...; the file
names start with a letter so they are importable modules for mypy), and
``script.py.mako`` (the template ``alembic revision`` fills in; not used at run time).

Adding a revision: change the tables in ``schema.py`` (or ``access.py``/``campaign.py``),
then write the migration by hand from a generated skeleton::

    python -c "from alembic import command; from rulekeeper.persistence.migrate import alembic_config; \\
command.revision(alembic_config(), 'what it does', rev_id='0003')"

and rename the file to ``v0003_what_it_does.py``.  ``tests/persistence/test_migrations.py``
checks that the migrated database matches the tables the code declares.

Rules every revision follows, because the same chain runs on SQLite and PostgreSQL,
inside one transaction, on databases that hold players' battles:

* Portable operations only (``add_column``, ``create_table``, ``create_index``...);
  dialect keywords such as ``sqlite_where`` are fine, raw dialect SQL is not.
* No ``COMMIT`` and no ``autocommit_block``: the store commits the whole upgrade.
* SQLite cannot alter most of a column; ``op.batch_alter_table`` rebuilds the table
  instead.  Never let it rebuild ``rk_battles``: with foreign keys on (and a pragma
  cannot turn them off inside a transaction), dropping the old table cascades and
  deletes every log entry.  Add nullable columns or columns with a server default.
* Data of the old shape stays readable: a column the old code wrote keeps its rows.
* If old rulekeepers must be kept off the new shape, bump ``rk_meta.schema_version``
  (the marker rulekeeper checked before migrations existed) as revision 0002 does.
"""
