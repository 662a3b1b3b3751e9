using Game.Gameplay;
using UnityEngine;

public class MainMenu : MonoBehaviour
{
    public string title;

    private void Start()
    {
        var score = new ScoreKeeper();
        score.Add(VendorLib.Version());
    }
}

public class ScoreKeeper
{
    private int _score;

    public void Add(int points)
    {
        _score += points;
    }

    private void Reset()
    {
    }
}
