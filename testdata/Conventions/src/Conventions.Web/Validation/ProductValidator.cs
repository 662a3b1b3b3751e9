using Conventions.Web.Data;
using FluentValidation;

namespace Conventions.Web.Validation;

/// <summary>Registered by AddValidatorsFromAssemblyContaining&lt;Program&gt;() (Contoso's 15 validators): nothing names
/// it, and it is not unused.</summary>
public sealed class ProductValidator : AbstractValidator<Product>;
