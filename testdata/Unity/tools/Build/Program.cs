System.Console.WriteLine("build");
