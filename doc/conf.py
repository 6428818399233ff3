# SPDX-License-Identifier: GPL-2.0-only
# Sphinx configuration for the quic-cc documentation, in the shape of ns-3's per-module doc trees
# (src/lte/doc/source/conf.py): quic-cc.rst is the module's page and its toctree holds the design,
# user, validation and results documents. Build:  sphinx-build -W -b html doc build/doc/html
# (`make doc`); scripts/test_docs.py builds it this way in `make test` and fails on any warning.

project = "quic-cc"
copyright = "The quic-cc contributors"
master_doc = "quic-cc"  # Sphinx < 4 name
root_doc = "quic-cc"  # Sphinx >= 4 name
source_suffix = ".rst"
exclude_patterns = ["_build"]
pygments_style = "sphinx"
html_theme = "alabaster"  # ns-3 uses its own ns3_html_theme; alabaster ships with Debian's Sphinx
# The whole manual's navigation, then the current page's sections.
html_sidebars = {"**": ["navigation.html", "localtoc.html", "relations.html", "searchbox.html"]}
# doc/_static/custom.css: wide tables scroll inside the text column (the page never scrolls
# sideways; the docs-build test looks at every page in headless Chromium).
html_static_path = ["_static"]
# Wider text column than alabaster's 940 px default: the manual's tables have up to 11 columns.
html_theme_options = {"page_width": "1240px", "sidebar_width": "260px"}
