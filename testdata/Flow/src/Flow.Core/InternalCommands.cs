namespace Flow.Core;

/// <summary>A command stored to run later, one entity every module's context maps to a table of its own schema
/// (modular-monolith's BuildingBlocks InternalCommand: meetings.InternalCommands, registrations.InternalCommands...).
/// </summary>
public sealed class InternalCommand
{
    public Guid Id { get; set; }
    public string Type { get; set; } = "";
}
