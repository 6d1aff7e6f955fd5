"""``python -m casebook.tools`` runs the ``casebook`` command."""

from casebook.tools.cli import main

main()
