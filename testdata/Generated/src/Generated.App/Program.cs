using System.Text.Json;
using Generated.App;

var editor = new EditorViewModel();
editor.Title = "draft";
editor.SaveCommand.Execute(null);
Console.WriteLine(JsonSerializer.Serialize(new Order { Id = editor.Saves }, OrderContext.Default.Order));
