// FluentValidation's shape in its own namespace (the package is not restored here), as testdata/Tested declares
// MSTest's attributes.
namespace FluentValidation
{
    public abstract class AbstractValidator<T>
    {
        public bool Validate(T instance) => instance is not null;
    }

    public static class ServiceCollectionExtensions
    {
        /// <summary>Registers every AbstractValidator&lt;T&gt; subclass of T's assembly.</summary>
        public static Microsoft.Extensions.DependencyInjection.IServiceCollection AddValidatorsFromAssemblyContaining<T>(
            this Microsoft.Extensions.DependencyInjection.IServiceCollection services) => services;
    }
}
