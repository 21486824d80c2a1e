"""Tool profiles as data: which tools each profile exposes and its locked instructions."""
