using Microsoft.FeatureManagement;

namespace Web.Api.Infrastructure;

/// <summary>fullstackhero's TenantFeatureFilter: `context.Parameters` is the `Parameters` section of the flag's filter
/// entry (`FeatureManagement:{flag}:EnabledFor:{n}:Parameters`), handed over by Microsoft.FeatureManagement, so its
/// keys are no root keys.</summary>
[FilterAlias("Tenants")]
public sealed class TenantFeatureFilter(IHttpContextAccessor http) : IFeatureFilter
{
    public Task<bool> EvaluateAsync(FeatureFilterEvaluationContext context)
    {
        var tenant = http.HttpContext?.User.Identity?.Name;
        var allowed = context.Parameters.GetSection("AllowedTenants").Get<string[]>() ?? [];
        var settings = context.Parameters.Get<TenantFilterSettings>() ?? new TenantFilterSettings();
        var comparison = settings.IgnoreCase ? StringComparer.OrdinalIgnoreCase : StringComparer.Ordinal;
        return Task.FromResult(tenant is not null && (allowed.Contains(tenant, comparison) || context.Parameters["Everyone"] == "true"));
    }
}

public sealed class TenantFilterSettings
{
    public bool IgnoreCase { get; set; }
}
