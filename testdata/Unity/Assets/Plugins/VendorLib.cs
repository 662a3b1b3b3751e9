public static class VendorLib
{
    public static int Version()
    {
        return 3;
    }
}
