// Linked into Core and Other (a document two projects compile).
[assembly: System.Reflection.AssemblyMetadata("Derive", "linked")]
