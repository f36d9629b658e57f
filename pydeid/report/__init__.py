"""pydeid.report: Markdown result tables and plots shared by every capability."""

from .plots import det_plot, linkability_plot
from .tables import markdown_table, update_results_section

__all__ = ["markdown_table", "update_results_section", "det_plot", "linkability_plot"]
