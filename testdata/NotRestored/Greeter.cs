// README: this project must NEVER be restored (no `dotnet restore`, `dotnet build` or IDE
// load that restores). The tests check that roslynmap notices the missing
// obj/project.assets.json and answers with its "not restored" hint (offering --restore).
// If an obj/ folder ever appears next to this file, delete it.

namespace NotRestored;

/// <summary>A valid class in a project that has never been restored.</summary>
public class Greeter
{
    public string Greet(string name) => $"Hello, {name}";
}
