namespace Game.Core
{
    public static class Damage
    {
        public static int Apply(int current, int amount)
        {
            return Utils.MathUtil.Clamp(current - amount, 0, int.MaxValue);
        }
    }
}
