namespace Hierarchy;

// A template method: Run (non-virtual, in the base) calls the abstract Apply on this, which each policy overrides.
// Run on an object statically typed as one policy cannot run a sibling policy's Apply: the receiver's static type
// (a ReceiverType fact where it is not the class declaring the member) narrows the callers and tests of each
// override (query/dispatch.py narrow). Through `this`, the object stays the same: RunTwice reaches Apply through
// Run on this, so only a receiver that may be a CachingRule runs CachingRule.Apply through it.
public abstract class Rule<T>
{
    public T Run(Func<T> action) => Run(action, "default");

    public T Run(Func<T> action, string context) => Apply(action, context);

    public string Summary => "rule " + this.Kind;

    protected abstract T Apply(Func<T> action, string context);

    protected abstract string Kind { get; }
}

public class CachingRule<T> : Rule<T>
{
    protected override T Apply(Func<T> action, string context) => action();

    protected override string Kind => "caching";

    // On this: a CachingRule (or one deriving from it).
    public T RunTwice(Func<T> action)
    {
        Run(action);
        return Run(action);
    }
}

public sealed class SlidingCachingRule<T> : CachingRule<T>
{
}

public class DeadlineRule<T> : Rule<T>
{
    protected override T Apply(Func<T> action, string context) => action();

    protected override string Kind => "deadline";

    // On this: a DeadlineRule, never a CachingRule.
    public T RunLate(Func<T> action) => Run(action, "late");
}

public static class Rules
{
    // A receiver typed as the base: any rule.
    public static int RunAny(Rule<int> rule) => rule.Run(() => 0);
}

public class RuleTests
{
    private readonly DeadlineRule<int> _deadline = new();

    [NUnit.Framework.Test]
    public void CachingRuns()
    {
        var caching = new CachingRule<int>();
        caching.Run(() => 1);
    }

    [NUnit.Framework.Test]
    public void SlidingCachingRuns()
    {
        SlidingCachingRule<int>? sliding = new();
        sliding?.Run(() => 2, "sliding");
    }

    [NUnit.Framework.Test]
    public void DeadlineRuns() => _deadline.Run(() => 3);

    [NUnit.Framework.Test]
    public void DeadlineRunsLate() => new DeadlineRule<int>().RunLate(() => 4);

    [NUnit.Framework.Test]
    public void CachingRunsTwice() => new SlidingCachingRule<int>().RunTwice(() => 5);

    [NUnit.Framework.Test]
    public void AnyRuleRuns() => Rules.RunAny(new DeadlineRule<int>());

    [NUnit.Framework.Test]
    public void DeadlineSummary() => _ = new DeadlineRule<int>().Summary;

    [NUnit.Framework.Test]
    public void CachingSummary() => _ = ((Rule<int>)new CachingRule<int>()).Summary;
}

// A virtual member called on a receiver typed as a class of the line that does not override it (jellyfin's Video and
// BaseItem): the call binds to the base's member, and runs an override of the receiver's class line only, never a
// sibling's (graph_callees and the trace: query/dispatch.py CallReach, from the ReceiverType fact).
public abstract class Shelf
{
    public virtual string Describe() => "shelf";
}

public class BookShelf : Shelf
{
}

public sealed class RareBookShelf : BookShelf
{
    public override string Describe() => "rare books";
}

public sealed class WineShelf : Shelf
{
    public override string Describe() => "wine";
}

public static class Shelves
{
    public static string DescribeBooks(BookShelf shelf) => shelf.Describe();

    public static string DescribeAny(Shelf shelf) => shelf.Describe();
}

// `this` beside a typed receiver in one caller: the call on `this` can run the caller's class line's override
// (WineCellar's), the typed one BookShelf's line's.
public class Cellar : Shelf
{
    public string Both(BookShelf shelf) => Describe() + shelf.Describe();
}

public sealed class WineCellar : Cellar
{
    public override string Describe() => "cellar";
}
