using System;

namespace Game.Gameplay
{
    public enum Stance
    {
        Guard,
        Charge,
    }

    [Serializable]
    public class Loadout
    {
        public Stance Stance;
        public int Ammo;
        private int _spare;
    }
}
