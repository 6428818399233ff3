# SPDX-License-Identifier: GPL-2.0-only
# Sphinx configuration for the quic-cc model-library chapter, in the shape of ns-3's
# doc/models/source/conf.py, with this chapter as the master document (ns-3's is an index that
# includes every module's .rst). Build:  sphinx-build -W -b html doc build/doc/html
# (`make doc`); scripts/test_docs.py builds it this way in `make test` and fails on any warning.

project = "quic-cc"
copyright = "The quic-cc contributors"
master_doc = "quic-cc"  # Sphinx < 4 name
root_doc = "quic-cc"  # Sphinx >= 4 name
source_suffix = ".rst"
exclude_patterns = ["_build"]
pygments_style = "sphinx"
html_theme = "alabaster"  # ns-3 uses its own ns3_html_theme; alabaster ships with Debian's Sphinx
# One document without a toctree: the sidebar shows this chapter's own sections (localtoc), not
# the empty global navigation.
html_sidebars = {"**": ["localtoc.html", "relations.html", "searchbox.html"]}
