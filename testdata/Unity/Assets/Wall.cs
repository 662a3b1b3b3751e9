using UnityEngine;

// Attached only by Assets/Prefabs/Build/Wall.prefab: a folder named Build under Assets/ is the game's own.
public class Wall : MonoBehaviour
{
    private void Start()
    {
    }
}
