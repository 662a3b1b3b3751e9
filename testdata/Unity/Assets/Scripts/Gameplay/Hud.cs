using UnityEngine;

namespace Game.Gameplay
{
    // No Hud.cs.meta: the guid an asset would attach it by is not known.
    public class Hud : MonoBehaviour
    {
    }
}
