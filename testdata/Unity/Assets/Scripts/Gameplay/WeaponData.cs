using UnityEngine;

namespace Game.Gameplay
{
    [CreateAssetMenu(menuName = "Game/Weapon")]
    public class WeaponData : ScriptableObject
    {
        public int damage;
    }
}
