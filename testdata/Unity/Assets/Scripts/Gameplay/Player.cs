using Game.Core;
using Unity.Netcode;
using UnityEngine;

namespace Game.Gameplay
{
    public class Player : NetworkBehaviour
    {
        [SerializeField] private Health health;

        private void Update()
        {
#if UNITY_2022_3_OR_NEWER
            health.TakeDamage(1);
#endif
        }

        public override void OnNetworkSpawn()
        {
        }

        [ServerRpc]
        private void FireServerRpc()
        {
        }

        public void OnStartClicked()
        {
        }

        private void Unwired()
        {
        }
    }
}
