"""Report: views of the results (the sections every scenario gets, and each scenario's own in views/), laid out by one
template for Markdown and HTML; numbers written by benchlab.formatting."""
