"""roslynmap: Roslyn-compiled code intelligence for AI agents on .NET repositories."""

__version__ = "0.3.19"
