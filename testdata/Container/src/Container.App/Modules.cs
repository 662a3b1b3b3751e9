using Autofac;

namespace Container.App;

public sealed class InfrastructureModule : Module
{
    protected override void Load(ContainerBuilder builder)
    {
        builder.RegisterType<SystemClock>()
            .As<IClock>()
            .InstancePerLifetimeScope();

        builder.RegisterDecorator<CachingClock, IClock>();

        builder.RegisterGeneric(typeof(MemoryRepository<>))
            .As(typeof(IRepository<>))
            .SingleInstance();

        builder.RegisterType<SmtpMailer>().AsImplementedInterfaces();

        builder.Register(c => new Settings { Name = "container" }).AsSelf().SingleInstance();

        builder.Register<IClock>(c => new SystemClock());
    }
}

public sealed class MessagingModule(string queue) : Module
{
    public string Queue { get; } = queue;

    protected override void Load(ContainerBuilder builder)
    {
        builder.RegisterAssemblyTypes(ThisAssembly)
            .AsClosedTypesOf(typeof(IHandler<>))
            .InstancePerDependency();

        builder.RegisterGenericDecorator(typeof(LoggingHandler<>), typeof(IHandler<>));

        builder.RegisterGenericDecorator(typeof(Commands.Billing.LoggingDecorator<,>), typeof(Commands.IRequestHandler<,>));
        builder.RegisterGenericDecorator(typeof(Commands.Shipping.LoggingDecorator<,>), typeof(Commands.IRequestHandler<,>));
    }
}

/// <summary>A module no one registers (sample-dotnet-core-cqrs-api's CachingModule): its registrations never run.</summary>
public sealed class CachingModule : Module
{
    protected override void Load(ContainerBuilder builder)
    {
        builder.RegisterType<CachingClock>().As<IClock>().SingleInstance();
    }
}
