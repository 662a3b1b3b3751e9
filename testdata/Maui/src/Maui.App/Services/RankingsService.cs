namespace Maui.App.Services;

public interface IRankingsService
{
}

public class RankingsService : IRankingsService
{
}
