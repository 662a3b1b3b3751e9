namespace Game.Gameplay
{
    // Sentry.prefab attaches this script (Sentry.cs.meta); its base is in the other part, Sentry.Network.cs.
    public partial class Sentry
    {
        private void Update()
        {
        }
    }
}
