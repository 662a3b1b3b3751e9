using System;

namespace BenchmarkDotNet.Attributes;

/// <summary>Stands for BenchmarkDotNet's attribute (its package is not restored here).</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class BenchmarkAttribute : Attribute
{
}
