using Microsoft.AspNetCore.Components;

namespace Conventions.Web.Components.Pages;

// A component Stepper.razor uses as a tag: `<Badge Tone="3" OnPick="Pick">` sets its parameters, which the Razor
// generator writes as `nameof(Badge.Tone)` (MudBlazor's `<MudButton Color="Color.Primary">`, 300 docs examples).
public partial class Badge : ComponentBase
{
    [Parameter] public int Tone { get; set; }

    [Parameter] public EventCallback<int> OnPick { get; set; }

    [Parameter] public RenderFragment? ChildContent { get; set; }

    // Set by no markup: nothing reads it.
    [Parameter] public string? Title { get; set; }

    // Named by Badge.razor, its own markup. Chip (Chip.razor, no C# part) is declared in no indexed file.
    private string Caption() => this is Chip chip ? $"chip {chip.Weight}" : $"tone {Tone}";

    // Private, so only Badge's own markup could name it: Stepper.razor's `@Hint()` is Stepper's (MudBlazor's
    // MudMask.GetCounterText, named only by other components' markup, was kept as "named in markup").
    private string Hint() => "unused";
}
