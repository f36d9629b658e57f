"""pydeid.report: Markdown result tables and plots shared by every capability."""

from .tables import markdown_table, update_results_section

__all__ = ["markdown_table", "update_results_section"]
