using System.Collections.Immutable;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace RoslynMap.Bridge;

/// <summary>
/// Binds each method body once instead of twice. Extraction calls GetDiagnostics (the compiler binds
/// every body of the document) and then asks the same semantic model about every name, which binds
/// every body again. Roslyn hands the compiler's bound trees to the semantic model when the compilation
/// has a caching semantic-model provider and an event queue: the set-up CompilationWithAnalyzers makes
/// so analyzers reuse the compiler's work. We take that compilation (with an analyzer that does nothing)
/// and, through reflection into Roslyn internals, drop each document's cached model once it is
/// extracted and empty the event queue nobody reads, so memory stays per document. When a member is
/// missing (another Roslyn), extraction uses the compilation as it was: the same rows, bound twice.
/// ROSLYNMAP_SHARED_BINDING=0 switches it off (to compare).
/// </summary>
internal static class SharedBinding
{
    private static readonly bool Wanted = Environment.GetEnvironmentVariable("ROSLYNMAP_SHARED_BINDING") is not "0";
    private const BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance;

    private static readonly PropertyInfo? ProviderProperty = typeof(Compilation).GetProperty("SemanticModelProvider", Any);
    private static readonly PropertyInfo? QueueProperty = typeof(Compilation).GetProperty("EventQueue", Any);

    private static MethodInfo? _clear;    // CachingSemanticModelProvider.ClearCache(SyntaxTree, Compilation)
    private static MethodInfo? _dequeue;  // AsyncQueue<CompilationEvent>.TryDequeue(out CompilationEvent)

    /// <summary>A compilation whose GetDiagnostics leaves its bound bodies in the document's semantic
    /// model, or `compilation` itself when that cannot be set up.</summary>
    public static Compilation Enable(Compilation compilation)
    {
        if (!Wanted || ProviderProperty is null || QueueProperty is null) return compilation;
        try
        {
            var options = new CompilationWithAnalyzersOptions(new AnalyzerOptions(ImmutableArray<AdditionalText>.Empty),
                onAnalyzerException: null, concurrentAnalysis: false, logAnalyzerExecutionTime: false);
            var shared = compilation.WithAnalyzers(ImmutableArray.Create<DiagnosticAnalyzer>(new NoAnalyzer()), options).Compilation;
            // Same options and trees: only the provider and the queue differ (else: not ours to use).
            if (!Equals(shared.Options, compilation.Options) || Release(shared, null) is false) return compilation;
            return shared;
        }
        catch (Exception)
        {
            return compilation;
        }
    }

    /// <summary>After a document is extracted: forget its cached semantic model (with its bound trees) and
    /// empty the compilation's event queue. False when Roslyn's internals are not what this expects.</summary>
    public static bool Release(Compilation compilation, SyntaxTree? tree)
    {
        var provider = ProviderProperty?.GetValue(compilation);
        var queue = QueueProperty?.GetValue(compilation);
        if (provider is null || queue is null) return false;
        var clear = _clear ??= provider.GetType().GetMethod("ClearCache", Any, [typeof(SyntaxTree), typeof(Compilation)]);
        var dequeue = _dequeue ??= queue.GetType().GetMethod("TryDequeue", Any);
        if (clear is null || dequeue is null || dequeue.GetParameters().Length != 1) return false;
        if (tree is not null) clear.Invoke(provider, [tree, compilation]);
        var args = new object?[1];
        while (dequeue.Invoke(queue, args) is true) args[0] = null;
        return true;
    }

    /// <summary>CompilationWithAnalyzers needs one analyzer; this one registers nothing.</summary>
#pragma warning disable RS1001, RS1036 // not a shipped analyzer: never registered, never loaded from a package
    private sealed class NoAnalyzer : DiagnosticAnalyzer
    {
        public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray<DiagnosticDescriptor>.Empty;

        public override void Initialize(AnalysisContext context)
        {
            context.EnableConcurrentExecution();
            context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        }
    }
#pragma warning restore RS1001, RS1036
}
