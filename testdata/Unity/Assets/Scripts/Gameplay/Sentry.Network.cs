using Unity.Netcode;

namespace Game.Gameplay
{
    public partial class Sentry : NetworkBehaviour
    {
    }
}
