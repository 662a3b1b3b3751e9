using BenchmarkDotNet.Attributes;
using Lib;

namespace Lib.Benchmarks;

public class SendBenchmarks
{
    [Benchmark]
    public void Send() => new Client().Send();

    public static void Main()
    {
    }
}
