using Game.Core;
using UnityEngine;
using VContainer;

namespace Game.Gameplay
{
    public class PlayerAnimation : MonoBehaviour
    {
        [Inject] private Health _health;
        [SerializeField] private Loadout loadout;

        private void OnFootstep()
        {
        }

        public void OnMenuOpened()
        {
        }

#if HAS_GAME_UTILS
        private void Start()
        {
        }
#endif

#if NETCODE_1_5
        private void OldNetcode()
        {
        }
#endif
    }
}
