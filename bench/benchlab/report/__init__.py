"""Report: views of the results, one formatting layer, one template for Markdown and HTML."""
