using Derive.Core;
using Microsoft.Extensions.Configuration;

namespace Derive.App;

public static class Report
{
    public static string Print(Checkout checkout) => checkout.Run().Trim();

    public static string? Tax(IConfiguration configuration) => Settings.Rate(configuration, "tax");

    public static System.Data.IDbCommand Rates(System.Data.IDbConnection connection) =>
        Commands.Create(connection, "SELECT Percent FROM TaxRates");
}

[System.Text.Json.Serialization.JsonSerializable(typeof(Quote))]
internal partial class QuoteContext : System.Text.Json.Serialization.JsonSerializerContext;
