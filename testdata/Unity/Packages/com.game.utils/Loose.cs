public class Loose
{
}
