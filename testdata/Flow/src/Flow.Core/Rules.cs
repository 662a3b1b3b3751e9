namespace Flow.Core;

/// <summary>A rule checked through its interface (sample-dotnet-core-cqrs-api's `CheckRule(IBusinessRule)`): the
/// trace from Register reaches the IsBroken of the rule Register makes, not of every rule.</summary>
public interface IBusinessRule
{
    bool IsBroken();
}

public sealed class EmailMustBeUniqueRule(string email) : IBusinessRule
{
    public bool IsBroken() => email.Length == 0;
}

public sealed class OrderMustHaveItemsRule(int count) : IBusinessRule
{
    public bool IsBroken() => count == 0;
}

public static class Rules
{
    public static bool Check(IBusinessRule rule) => rule.IsBroken();
}

public static class Customers
{
    public static string Register(string email) => Rules.Check(new EmailMustBeUniqueRule(email)) ? "" : email;
}
