using UnityEditor;

namespace Game.Gameplay.Editor
{
    [CustomEditor(typeof(Player))]
    public class PlayerInspector : UnityEditor.Editor
    {
        private void OnSceneGUI()
        {
        }
    }
}
