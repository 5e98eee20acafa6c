"""The War Table engagement in the web keeper (issue 25): a readable page instead of the generic dump."""
