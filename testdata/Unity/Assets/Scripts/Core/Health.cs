using UnityEngine;

namespace Game.Core
{
    public class Health : MonoBehaviour
    {
        [SerializeField] private int maxHealth = 100;
        public Color tint;
        private int _current;

        private void Awake()
        {
            _current = maxHealth;
        }

        public void TakeDamage(int amount)
        {
            _current = Damage.Apply(_current, amount);
        }

        private void NeverCalled()
        {
        }
    }
}
