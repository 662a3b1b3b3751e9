using UnityEditor;
using UnityEngine;

public static class MenuTools
{
    [MenuItem("Tools/Heal all")]
    private static void HealAll()
    {
        Debug.Log(new ScoreKeeper());
    }
}
