using UnityEngine;

namespace Game.Gameplay
{
    // A component no scene or prefab attaches and no code names: unused, with its message and fields.
    public class Turret : MonoBehaviour
    {
        [SerializeField] private float range;
        public int ammo;

        private void Update()
        {
        }

        public void Fire()
        {
        }
    }
}
