"""Sphinx configuration of atlas's documentation site (docs/development.md#documentation).

The pages are the Markdown files of this folder (myst-parser); the API reference is
generated from the docstrings (autodoc, numpydoc); the CLI reference is ``cli.md``,
which ``tools/make_cli_doc.py`` writes from the parser.  The site reads from
``file://`` without a network: the theme's own files only, no fonts or scripts from
elsewhere (``tests/test_docs.py`` checks the built pages).
"""

from __future__ import annotations

import atlas

project = "atlas"
author = "the atlas authors"
copyright = "the atlas authors, MIT licence"
release = version = atlas.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "numpydoc"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build"]

# Markdown: headings get anchors (cli.md#served-bots-... links), ``pycon`` blocks stay.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# Docstrings: numpydoc sections; members listed where the pages ask for them.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Offline: Sphinx's own theme with the system's fonts (no web fonts); search works from
# file:// (its index is a script the page loads, not a fetch).
html_theme = "alabaster"
html_theme_options = {
    "font_family": "system-ui, sans-serif",
    "head_font_family": "system-ui, sans-serif",
    "code_font_family": "ui-monospace, monospace",
    "page_width": "1160px",
    "show_powered_by": False,
}
html_title = f"atlas {release}"
html_static_path: list[str] = []
html_copy_source = False
html_show_sourcelink = False
